"""Every number and size the service accepts, in one place.

A request's cost and its answer's size follow from these: no JSON number the service would have
to write back can exceed what JSON tools read exactly (2^53), and no record can ask for more work
than a tournament game needs many times over. The request bodies' models take them from here
(`adjudicator/api/bodies.py`), and the OpenAPI document's schemas are generated from those models,
so the document states the same bounds; an input outside them is a 400 naming the field.
"""

from __future__ import annotations

# Points: a turn's score, a running total, a penalty, a final score. The best play possible
# scores under 2,000 and tournament games end under 1,500 a player.
MAX_POINTS = 99_999

# A game record (GCG or JSON turns): lines that are turns, challenges, penalties or end racks.
# A tournament game has about 30 to 60; four players with every challenge and penalty, under 200.
MAX_TURNS = 400
MAX_RECORD_BYTES = 64 * 1024  # the request body of games/verify
MAX_ANSWER_BYTES = 512 * 1024  # the report of a record: about 190 KB at the cap (a safety net)
MAX_GCG_CHARS = 60_000  # the record's text in that body (a game of MAX_TURNS lines is ~20,000)
MAX_LINE_CHARS = 4000  # one line of a GCG record: a note or a description (never echoed)
MAX_MOVE_LINE_CHARS = 200  # one move line (`>nick: RACK 8H WORD +24 130`), echoed in the report
MAX_NAME_CHARS = 64  # a player's nickname or name
MAX_PIN_CHARS = 64  # the judge page's PIN as typed
MAX_MOVE_CHARS = 40  # a move in notation: a square and at most 15 letters, or `(LI)`-style runs
MAX_RACK_CHARS = 16  # rack text: at most RACK_SIZE tiles, room for spaces

# Earlier plays a position may be given as (moves/validate, games/board): a game has far fewer;
# this bounds the work one request can ask for.
MAX_HISTORY = 100

MAX_DRAW_ROUNDS = 20  # draw-order: equal draws repeat; twenty rounds settle any real draw

# Nesting of a JSON body: objects and lists within each other, the body's own object the first
# level. The deepest body read is moves/validate's structured tiles (object, object, list,
# object: 4); deeper is refused before anything walks the body (a walk recursing through ~600
# levels had failed with a 500).
MAX_JSON_DEPTH = 8

MAX_CHALLENGE_WORDS = 8  # words in one challenge: a play forms at most 8 (seven tiles, 1 + 7)
MAX_WORD_CHARS = 64  # a challenged word as typed (NFD and folding make it longer than 15)

# Query numbers (exchange-allowed) and small counts.
MAX_BAG = 200  # no tile set has more than 104 tiles
MAX_OVERTIME_MINUTES = 600  # ten hours: a game is lost on time long before

# A stored row's id as a URL or the command line names it (a key, a device, a pairing code): the
# stores' ids are 64-bit (PostgreSQL BIGINT, SQLite INTEGER); a larger number names no row.
MAX_ROW_ID = 2**63 - 1
