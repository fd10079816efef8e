"""Axis & Allies Anniversary Edition (2008): the Anniversary board with its 1941 and 1942 set-ups and its unit
catalogue (cruisers included). Data only so far: no ruleset of this family is registered yet."""
