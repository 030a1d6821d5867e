"""Internals of the SGLang simulator: host facts, model registry, speed model."""
