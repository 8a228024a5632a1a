"""``{% load chips %}`` then ``{{ amount|chips }}``: chip counts with thousands separators."""

from django import template

from tables import formatting

register = template.Library()
register.filter("chips", formatting.chips)
