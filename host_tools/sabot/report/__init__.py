"""`sabot report`, one concern a module: cli (the command), model (the journal as séances, tailles and coups),
page (the HTML) and its chart, text (the report's own words), regulation (the articles quoted), report.css."""
