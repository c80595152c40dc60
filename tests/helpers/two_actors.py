"""Two invented WikiActors records (original, manual anonymization, public knowledge) for the benchmark tests."""

from textanon.io.datasets.wikiactors import read_wikiactors

TWO_ACTORS = read_wikiactors(
    [
        {
            "name": "Ann Vell",
            "original_abstract": "Ann Vell trained as a surgeon in Cork.",
            "manual_abstract": "SENSITIVE trained as a SENSITIVE in SENSITIVE.",
            "public_knowledge": "Ann Vell trained as a surgeon in Cork. She played a harbour pilot on stage.",
        },
        {
            "name": "Bo Lind",
            "original_abstract": "Bo Lind sang folk songs in Malmo.",
            "manual_abstract": "SENSITIVE sang SENSITIVE songs in SENSITIVE.",
            "public_knowledge": "Bo Lind sang in Malmo. He recorded folk songs for a radio choir.",
        },
    ]
)
