#!/usr/bin/env python3
"""Compares what a sink received with the eve.json of the same run.

  compare.py EVE GOT [--reverse] [--syslog PRI IDENT]

EVE and GOT are files of one record a line. --reverse: GOT is newest
first (LRANGE of an LPUSH list). --syslog: each GOT line must start with
"<PRI>Mmm dd hh:mm:ss IDENT[pid]: ", which is stripped before comparing.
Prints one line and exits 0 when GOT has every line of EVE, in order, and
nothing else.
"""
import re
import sys


def main():
    args = sys.argv[1:]
    reverse = '--reverse' in args
    syslog = None
    if '--syslog' in args:
        i = args.index('--syslog')
        syslog = (args[i + 1], args[i + 2])
        del args[i:i + 3]
    args = [a for a in args if a != '--reverse']
    eve = open(args[0], 'rb').read().decode().splitlines()
    got = open(args[1], 'rb').read().decode().splitlines()
    if reverse:
        got.reverse()
    if syslog:
        hdr = re.compile(r'^<%s>[A-Z][a-z]{2} [ 123]\d \d\d:\d\d:\d\d %s\[\d+\]: ' %
                         (re.escape(syslog[0]), re.escape(syslog[1])))
        stripped = []
        for n, line in enumerate(got):
            m = hdr.match(line)
            if not m:
                print('record %d has no syslog header <%s>... %s[pid]: %r' %
                      (n, syslog[0], syslog[1], line[:80]))
                return 1
            stripped.append(line[m.end():])
        got = stripped
    if not eve:
        print('eve.json is empty: nothing to compare')
        return 1
    if got == eve:
        print('%d records, the same and in the same order' % len(eve))
        return 0
    for n, (a, b) in enumerate(zip(eve, got)):
        if a != b:
            print('%d records in eve.json, %d received; first difference at %d: '
                  'eve %r, got %r' % (len(eve), len(got), n, a[:100], b[:100]))
            return 1
    print('%d records in eve.json, %d received (the shorter is a prefix of the other)' %
          (len(eve), len(got)))
    return 1


if __name__ == '__main__':
    sys.exit(main())
