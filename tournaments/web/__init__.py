"""What the pages of both apps share about requests: role checks, the log-in throttle, the
dice choice kept in the visitor's session and the whole-page cache."""
