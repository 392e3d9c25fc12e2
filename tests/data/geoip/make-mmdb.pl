#!/usr/bin/perl
# Writes tests/data/geoip/test-country.mmdb, a tiny GeoIP2-Country-shaped
# database for the geoip e2e case and unit test (Debian:
# libmaxmind-db-writer-perl):
#   10.0.0.1/32   -> country.iso_code "US"
#   10.0.0.2/32   -> country.iso_code "DE"
#   192.0.2.0/24  -> country.iso_code "JP"
# Usage: perl tests/data/geoip/make-mmdb.pl OUT.mmdb
use strict;
use warnings;
use MaxMind::DB::Writer::Tree;

my $out = shift or die "usage: $0 OUT.mmdb\n";
my $tree = MaxMind::DB::Writer::Tree->new(
	ip_version            => 6,
	record_size           => 24,
	database_type         => 'GeoIP2-Country',
	languages             => ['en'],
	description           => { en => 'test countries' },
	map_key_type_callback => sub { { country => 'map', iso_code => 'utf8_string' }->{ $_[0] } },
	alias_ipv6_to_ipv4    => 1,
	remove_reserved_networks => 0,
);
$tree->insert_network('10.0.0.1/32', { country => { iso_code => 'US' } });
$tree->insert_network('10.0.0.2/32', { country => { iso_code => 'DE' } });
$tree->insert_network('192.0.2.0/24', { country => { iso_code => 'JP' } });
open my $fh, '>:raw', $out or die "$out: $!\n";
$tree->write_tree($fh);
close $fh or die "$out: $!\n";
