import sys

from utility import helpers

if __name__ == "__main__":
    print "preparing", helpers.name(sys.argv[1])
