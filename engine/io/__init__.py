"""Reading spreadsheets and writing releases: never loses data, explains every bad file."""
