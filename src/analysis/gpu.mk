# analysis files of the gpu owner
