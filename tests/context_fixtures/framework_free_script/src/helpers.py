import csv


def rows(path):
    found = csv.reader(open(path))
    for i in xrange(10):
        next(found)
