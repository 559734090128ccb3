#!/bin/bash
# rooms.sh [--uses]: the rooms of C code, as docs/development.md's Layout table
# declares them, so that the build and the room checker read one list.
#
# A row "| `room/` | what | uses |" whose uses column is "-" or a
# comma-separated list of rooms makes room/ a room of C code.
#   (none)   one room a line, in the table's order
#   --uses   one line "room used" per allowed direction, and "room room"
set -u
cd "$(dirname "$0")/.." || exit 2
sed -n '/^## Layout/,/^## /s/^| `\([a-z_]*\)\/` |.*| \([-a-z_, ]*[-a-z_]\) |$/\1 \2/p' \
	docs/development.md | while read -r room uses; do
	if [ "${1:-}" != --uses ]; then
		echo "$room"
		continue
	fi
	echo "$room $room"
	[ "$uses" = - ] && continue
	tr ',' '\n' <<<"$uses" | while read -r used; do
		echo "$room $used"
	done
done
