package dev.muster.jobs.controller;

import java.util.Map;
import java.util.OptionalInt;

/** The value of a PriorityClass by name, from the runtime's informer cache; empty for an unknown class. */
@FunctionalInterface
public interface PriorityClassLookup {
    PriorityClassLookup NONE = name -> OptionalInt.empty();

    OptionalInt value(String priorityClassName);

    static PriorityClassLookup of(Map<String, Integer> values) {
        return name -> values.containsKey(name) ? OptionalInt.of(values.get(name)) : OptionalInt.empty();
    }
}
