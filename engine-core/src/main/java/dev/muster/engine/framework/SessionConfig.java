package dev.muster.engine.framework;

import com.google.common.collect.ImmutableList;
import java.util.List;

/** What a session runs: the actions in order and the plugins in their tiers. */
public record SessionConfig(ImmutableList<Action> actions, ImmutableList<ImmutableList<ConfiguredPlugin>> tiers) {
    public SessionConfig {
        actions = ImmutableList.copyOf(actions);
        ImmutableList.Builder<ImmutableList<ConfiguredPlugin>> copy = ImmutableList.builder();
        for (List<ConfiguredPlugin> tier : tiers) {
            copy.add(ImmutableList.copyOf(tier));
        }
        tiers = copy.build();
    }

    public boolean hasAction(String name) {
        return actions.stream().anyMatch(action -> action.name().equals(name));
    }
}
