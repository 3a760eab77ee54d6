"""Rule2DRC synthesis and SplitTester selection: DRC decks from natural-language rules, chosen by generated tests."""
