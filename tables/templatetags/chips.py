"""``{% load chips %}`` then ``{{ amount|chips }}``: chip counts with thousands separators."""

from django import template

from tables.text import chips

register = template.Library()
register.filter("chips", chips)
