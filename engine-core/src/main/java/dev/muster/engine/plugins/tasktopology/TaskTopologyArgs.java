package dev.muster.engine.plugins.tasktopology;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * The task-topology plugin's argument, with Volcano's name and default:
 *
 * <pre>{@code
 * task-topology.weight: 10   # multiplies the node score (1); 0 turns the score off
 * }</pre>
 */
public record TaskTopologyArgs(@JsonProperty("task-topology.weight") int weight) {
    public static final String WEIGHT = "task-topology.weight";
    public static final TaskTopologyArgs DEFAULTS = new TaskTopologyArgs(1);
}
