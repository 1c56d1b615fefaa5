"""Human validation on Amazon Mechanical Turk, as BLiMP did it.

``batch`` -> ``design`` (sampling, lists x replicas, ``attention`` checks, ``balance``d
positions) -> ``page`` (one Jinja2 template) and ``properties`` (reward, fee, qualifications);
``results`` -> ``ingest`` (exclusions) -> ``agreement`` -> ``summary`` (report files);
``simulate`` rehearses the loop and ``mturk`` posts and fetches through boto3 (optional).

Nothing is imported here; import the module you need.
"""
