import sys

from utility import helpers

if __name__ == "__main__":
    for i in xrange(int(sys.argv[1])):
        helpers.name(i)
