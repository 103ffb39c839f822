# analysis files of the attribution owner
