def test_home_page_runs_offline_in_both_languages(open_page):
    for lang, title in (("fr", "Atelier d'évaluation des LLM"), ("en", "LLM evaluation workshop")):
        at = open_page(None, lang)
        assert not at.exception
        assert [t.value for t in at.title] == [title]
        assert any("recordings/" in m.value for m in at.markdown)
