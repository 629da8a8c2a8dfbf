"""Unpacks one folder of a model zip (a sentence-transformers model folder) to a folder of its own.

usage: unpack_model_zip.py <model.zip> <folder inside the zip> <out dir>
Only that folder's files are written (no path outside <out dir>; Windows' desktop.ini files are left out).
"""
import os
import shutil
import sys
import zipfile


def main(zip_path, folder, out):
    partial = out + ".partial"
    shutil.rmtree(partial, ignore_errors=True)
    prefix = folder.rstrip("/") + "/"
    written = 0
    with zipfile.ZipFile(zip_path) as archive:
        for info in archive.infolist():
            if info.is_dir() or not info.filename.startswith(prefix):
                continue
            relative = info.filename[len(prefix):]
            if os.path.basename(relative) == "desktop.ini":
                continue
            target = os.path.abspath(os.path.join(partial, relative))
            if not target.startswith(os.path.abspath(partial) + os.sep):
                sys.exit(f"{zip_path}: {info.filename} would land outside {out}")
            os.makedirs(os.path.dirname(target), exist_ok=True)
            with archive.open(info) as src, open(target, "wb") as dst:
                shutil.copyfileobj(src, dst, 1 << 22)
            written += 1
    if written == 0:
        sys.exit(f"{zip_path}: no files under {prefix}")
    shutil.rmtree(out, ignore_errors=True)
    os.rename(partial, out)
    print(f"{written} files unpacked to {out}")


if __name__ == "__main__":
    main(*sys.argv[1:4])
