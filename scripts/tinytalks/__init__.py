# TinyTalks in languages other than English: one module per language, each with levels(); see scripts/make-tinytalks.
