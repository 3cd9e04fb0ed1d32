"""Helpers for the tests and benchmarks that run from the checkout (a throwaway PostgreSQL
cluster): outside the packages the wheel installs, so no test helper ships with the service."""
