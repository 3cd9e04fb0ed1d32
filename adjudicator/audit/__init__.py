"""The audit log: every ruling the service gives, recorded before the answer leaves.

- `labels.py`: the optional event/round/table/game/player fields a caller attaches;
- `chain.py`: entries, their canonical form and hash chain, appending and verifying;
- `record.py`: one transaction per ruling: idempotent replay, the jury count, the entry;
- `export.py`: the JSON export; `sheet.py`: the CSV and xlsx ones (`adjudicator audit export`,
  the rulings page's download); `search.py`, `reading.py`, `views.py`: the rulings page.
"""
