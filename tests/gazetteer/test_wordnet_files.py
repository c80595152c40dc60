"""The WordNet data files as the offline reader opens them (textanon.detect.gazetteer.wordnet_data._DataFile)."""

import multiprocessing

from textanon.detect.gazetteer.wordnet_data import _DataFile


def test_a_forked_worker_reads_from_its_own_position(tmp_path):
    # --n-process forks workers after the parent read WordNet: a file inherited from the parent shares its position,
    # so a worker's seek moved the parent's (and the other workers') readline
    lines = [f"{n:08d} a synset\n" for n in range(20_000)]  # larger than a read buffer, as a data file is
    path = tmp_path / "data.noun"
    path.write_text("".join(lines))
    size = len(lines[0])
    data = _DataFile(path)
    assert data.readline() == lines[0]

    def worker():
        data.seek(100 * size)
        assert data.readline() == lines[100]

    data.seek(15_000 * size)  # the parent seeks, a worker seeks and reads, then the parent reads (nltk: seek, readline)
    process = multiprocessing.get_context("fork").Process(target=worker)
    process.start()
    process.join()
    assert process.exitcode == 0
    assert data.readline() == lines[15_000]
