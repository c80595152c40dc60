"""The TRIR report (textanon_eval.trir.published: rank correlation, the markdown table over seeds) and the TRIR
benchmark script's options (textanon_lab.benchmarks.trir)."""

import pytest

from textanon_eval.trir.published import spearman


def test_spearman():
    assert spearman([1, 2, 3], [10, 20, 30]) == pytest.approx(1.0)
    assert spearman([1, 2, 3], [3, 2, 1]) == pytest.approx(-1.0)


def test_markdown_shows_mean_sd_over_seeds():
    from textanon_eval.trir.published import markdown

    settings = {
        "model_label": "m",
        "model_id": "m",
        "device": "cpu",
        "torch_threads": 1,
        "individuals": 2,
        "train_windows": 3,
        "dev_documents": 0,
        "window": 100,
        "overlap": 25,
        "batch_size": 16,
        "lr": 5e-5,
        "epochs": 1,
        "patience": 5,
        "pretrain_epochs": 0,
        "epochs_run": 1,
        "selected_epoch": 1,
        "keep_mask_marks": False,
        "curate": True,
        "anonymize_background": True,
        "max_bk_chars": None,
        "seed": [42, 1, 2],
    }
    result = {
        "trir": {"original": 94.0, "manual": 22.0},
        "trir_sd": {"original": 4.0, "manual": 2.0},
        "upper_bound": 100.0,
        "settings": settings,
        "timings_s": {},
        "peak_rss_mb": 1.0,
    }
    md = markdown(result, "t", {"original": 100, "manual": 10})
    assert "| Original | 100 | 94.0 ± 4.0 | -6 |" in md and "[42, 1, 2]" in md


def test_wall_times_of_several_seeds_are_one_column_per_seed():
    from textanon_eval.trir.published import _timings_table

    rows = _timings_table({42: {"finetuning": 10.0, "total": 12.0}, 1: {"finetuning": 9.0, "total": 11.5}})
    assert rows[0] == "| stage | seed 42 | seed 1 |"
    assert rows[2:] == ["| finetuning | 10.0 | 9.0 |", "| total | 12.0 | 11.5 |"]
    assert _timings_table({"total": 3.0})[2:] == ["| total | 3.0 |"]


def test_benchmark_script_options_become_attack_settings():
    from textanon_eval.trir import TrirSettings
    from textanon_lab.benchmarks.trir import parser, settings_of

    assert settings_of(parser().parse_args(["d.json", "--output", "o.json"])) == TrirSettings()
    args = parser().parse_args(["d.json", "--output", "o", "--epochs", "2", "--lr", "1e-4", "--no-dev", "--no-monitor"])
    s = settings_of(args)
    assert (s.epochs, s.lr, s.use_dev, s.monitor, s.keep_mask_marks) == (2, 1e-4, False, False, False)
