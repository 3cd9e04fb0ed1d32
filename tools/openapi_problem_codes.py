"""Write the `Problem` enum's codes into adjudicator/openapi.json's `Problem.code` enum.

    python tools/openapi_problem_codes.py          # rewrite the enum in place
    python tools/openapi_problem_codes.py --check  # exit 1 when the document differs

The document is hand-kept where it is not generated; this touches only that one list, and
`adjudicator/tests/test_openapi.py` fails until it has been run after a code is added.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
OPENAPI = ROOT / "adjudicator" / "openapi.json"


def main(argv: list[str]) -> int:
    from adjudicator.problems import Problem

    text = OPENAPI.read_text("utf-8")
    doc = json.loads(text)
    doc["components"]["schemas"]["Problem"]["properties"]["code"]["enum"] = sorted(
        p.value for p in Problem
    )
    new = json.dumps(doc, indent=2, ensure_ascii=False) + "\n"
    if argv == ["--check"]:
        return 0 if new == text else 1
    if new != text:
        OPENAPI.write_text(new, "utf-8")
        print(f"rewrote the Problem.code enum in {OPENAPI.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
