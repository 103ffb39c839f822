#ifndef HTX_CLI_CLI_H
#define HTX_CLI_CLI_H

/* Entry point of the program: parses argv, runs the headless commands
 * (info, report, counters, diff --report) or hands over to the UI, and
 * returns the process exit status (0 ok, 1 bad input, 2 bad usage). Borrows
 * argv until return and frees everything it allocated. */
int cli_main(int argc, char **argv);

#endif
