"""Making a release: buckets, classes, recoding and the independent check.

Everything between the cleaned input and the verified release table lives here: the
confidential buckets (KBS 2015 §6.1), the feasibility arithmetic, the t-close partition (exact
or block-wise), k-anonymous microaggregation and its improvement pass, the recoding of the
released columns, the verifier, the noise route (Construction B) and the plan that says what a
run will do before it runs.
"""
