package dev.muster.cli.examplebridge;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.annotation.JsonProperty;
import dev.muster.engine.framework.FitFailure;
import dev.muster.engine.framework.NodeFilter;
import dev.muster.engine.framework.NodeState;
import dev.muster.engine.framework.Plugin;
import dev.muster.engine.framework.PluginFactory;
import dev.muster.engine.framework.Session;
import dev.muster.engine.framework.TaskState;
import java.util.Optional;

/** The example bridge's scheduling plugin: no task goes to the node its {@code node} argument names. */
public final class AvoidNodePlugin implements Plugin, NodeFilter {
    public static final String NAME = "example-avoid-node";

    /**
     * The plugin's arguments.
     *
     * @param node the node to keep free; empty keeps none
     */
    public record Args(@JsonProperty("node") String node) {
        public static final Args DEFAULTS = new Args("");

        public Args {
            requireNonNull(node, "node is null");
        }
    }

    private final Args args;

    private AvoidNodePlugin(Args args) {
        this.args = args;
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Optional<FitFailure> filter(TaskState task, NodeState node) {
        return node.name().value().equals(args.node())
                ? Optional.of(FitFailure.unresolvable("node " + args.node() + " is kept free by " + NAME))
                : Optional.empty();
    }

    /** Builds the plugin from its arguments. */
    public static final class Factory implements PluginFactory<Args> {
        @Override
        public String name() {
            return NAME;
        }

        @Override
        public Class<Args> argsType() {
            return Args.class;
        }

        @Override
        public Args defaultArgs() {
            return Args.DEFAULTS;
        }

        @Override
        public Plugin create(Args args, Session session) {
            return new AvoidNodePlugin(requireNonNull(args, "args is null"));
        }
    }
}
