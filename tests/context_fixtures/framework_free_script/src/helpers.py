import csv


def rows(path):
    for row in csv.reader(open(path)):
        print row
