"""Forms of the web pages; each module serves one audience or one idea."""
