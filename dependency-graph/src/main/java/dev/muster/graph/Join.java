package dev.muster.graph;

/**
 * How a node combines the conditions on its incoming edges. A node without parents is ready at once
 * whatever its join.
 */
public enum Join {
    /** Every parent must meet its edge's condition: Volcano {@code iteration: all}, Airflow {@code all_*}. */
    ALL,
    /** One parent meeting its edge's condition is enough: Volcano {@code iteration: any}, Airflow {@code one_*}. */
    ANY
}
