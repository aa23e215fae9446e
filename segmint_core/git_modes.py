"""The modes git records for an entry of a tree or the index, as its plumbing prints them."""

REGULAR = "100644"
EXECUTABLE = "100755"
SYMLINK = "120000"  # its blob is the link's target
GITLINK = "160000"  # a submodule: its commit, not a blob
FILE_MODES = (REGULAR, EXECUTABLE)  # a file's content is its blob
