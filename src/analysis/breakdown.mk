# analysis files of the breakdown owner
