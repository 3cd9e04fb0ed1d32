"""`python -m adjudicator.settings --markdown`: print the settings reference's table;
`--check`: read the environment's settings and say whether the service could start with them."""

from __future__ import annotations

import sys

from adjudicator.settings import ConfigError, read
from adjudicator.settings.reference import markdown_table


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if args == ["--markdown"]:
        sys.stdout.write(markdown_table())
        return 0
    if args == ["--check"]:
        try:
            read()
        except ConfigError as exc:
            print(f"adjudicator: {exc}", file=sys.stderr)
            return 2
        print("settings: ok")
        return 0
    print("usage: python -m adjudicator.settings --markdown | --check", file=sys.stderr)
    return 2


if __name__ == "__main__":
    raise SystemExit(main())
