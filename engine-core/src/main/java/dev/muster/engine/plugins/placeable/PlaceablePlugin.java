package dev.muster.engine.plugins.placeable;

import static java.util.Objects.requireNonNull;

import dev.muster.engine.framework.AdmissionCheck;
import dev.muster.engine.framework.JobState;
import dev.muster.engine.framework.NoArgs;
import dev.muster.engine.framework.Plugin;
import dev.muster.engine.framework.PluginFactory;
import dev.muster.engine.framework.Session;
import dev.muster.engine.framework.Vote;
import dev.muster.engine.model.Resources;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Admits a job only when its gang can be placed now: its pods, packed first-fit onto what the nodes
 * have idle less what jobs admitted earlier in this session will take, all fit. Pods are whole, so a
 * gang of 8-GPU pods needs whole idle nodes, and 40 idle GPUs spread 4 per node admit none of them.
 *
 * <p>This replaces overcommit's budget in Muster's default configuration (Volcano issue 3670): there,
 * admitted jobs hold {@code minResources} of a cluster-wide budget until they run, so admitted jobs that
 * cannot be placed (fragmentation, or a queue over its share) keep placeable ones out while nodes idle.
 * Here an admitted job that was not placed holds nothing in the next session: admission is given back
 * after one cycle and counted again against what is idle then. Node filters (selectors, taints) are not
 * consulted: admission is about room, and allocate still decides where each pod goes.
 *
 * <p>A job of a queue still under its deserved share (by the session's {@code DeservedShare} plugin,
 * proportion) that does not fit the idle nodes may be admitted where it would fit once other queues'
 * loans (what they hold above their deserved share) are taken back, so that {@code reclaim}, which
 * serves admitted jobs only, can take them back for it.
 */
public final class PlaceablePlugin implements Plugin, AdmissionCheck {
    public static final String NAME = "placeable";

    private final Session session;
    private final IdleNodes idle;
    /** Idle plus loans, for jobs of queues under their deserved share; built on first use, once shares exist. */
    private Loans loans;
    private IdleNodes reclaimable;
    /** Shapes that did not fit: free space only shrinks within a session, so they will not fit later. */
    private final Set<GangShape> refused = new HashSet<>();
    private final Set<GangShape> refusedOnLoans = new HashSet<>();
    private final Map<JobState, int[]> accepted = new HashMap<>();

    PlaceablePlugin(Session session) {
        this.session = session;
        this.idle = new IdleNodes(session.nodes(), node -> Resources.EMPTY);
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Vote isEnqueueable(JobState job) {
        GangShape gang = GangShape.of(job);
        if (gang.size() == 0) {
            return Vote.ABSTAIN;
        }
        if (!refused.contains(gang)) {
            Optional<int[]> placement = idle.fit(gang);
            if (placement.isPresent()) {
                accepted.put(job, placement.get());
                return Vote.PERMIT;
            }
            refused.add(gang);
        }
        if (loans == null) {
            loans = new Loans(session);
            reclaimable = new IdleNodes(session.nodes(), node -> loans.on(session, node));
        }
        // an owner under its share may be admitted onto loans: reclaim takes them back once it is admitted
        if (!refusedOnLoans.contains(gang) && loans.withinShare(job.queue(), gang.total())) {
            Optional<int[]> onLoans = reclaimable.fit(gang);
            if (onLoans.isPresent()) {
                reclaimable.take(gang, onLoans.get());
                return Vote.PERMIT;
            }
            refusedOnLoans.add(gang);
        }
        return Vote.REJECT;
    }

    @Override
    public Optional<String> explainRejection(JobState job) {
        GangShape gang = GangShape.of(job);
        if (gang.size() == 0) {
            return Optional.empty();
        }
        StringBuilder reason = new StringBuilder("no room to place the gang now: it needs ").append(gang.size())
                .append(gang.size() == 1 ? " pod" : " pods").append(" of up to ").append(gang.pod(0)).append(", and ");
        int fitting = idle.fitting(gang.pod(0));
        reason.append(fitting).append(fitting == 1 ? " node has" : " nodes have").append(" room for the largest");
        idle.closest(gang).ifPresent(closest -> reason.append("; the closest is ").append(closest));
        return Optional.of(reason.toString());
    }

    @Override
    public void enqueued(JobState job) {
        int[] placement = accepted.remove(job);
        if (placement != null) {
            idle.take(GangShape.of(job), placement);
        }
    }

    /** Builds the plugin; it takes no arguments. */
    public static final class Factory implements PluginFactory<NoArgs> {
        @Override
        public String name() {
            return NAME;
        }

        @Override
        public Class<NoArgs> argsType() {
            return NoArgs.class;
        }

        @Override
        public NoArgs defaultArgs() {
            return NoArgs.INSTANCE;
        }

        @Override
        public Plugin create(NoArgs args, Session session) {
            requireNonNull(args, "args is null");
            return new PlaceablePlugin(session);
        }
    }
}
