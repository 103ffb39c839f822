# analysis files of the diff owner
