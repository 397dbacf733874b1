package dev.muster.runtime.binding;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import dev.muster.engine.cache.CacheSnapshot;
import dev.muster.engine.cache.ClusterCache;
import dev.muster.engine.framework.CommittedBinds;
import dev.muster.engine.framework.SessionResult;
import dev.muster.engine.framework.TaskState;
import dev.muster.engine.model.NodeName;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Clock;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The write side of a cycle, in order: the implied objects (the default queue, a lone pod's PodGroup)
 * before the session runs, each gang's binds as the session commits them, then evictions, the rest of
 * the binds, and status and events. Every decision of the session reaches the API server through here.
 *
 * <p>Not thread-safe: the scheduling thread calls it once per cycle.
 */
public final class DecisionWriter {
    private static final Logger log = LoggerFactory.getLogger(DecisionWriter.class);

    private final ImpliedObjects implied;
    private final Evictor evictor;
    private final Binder binder;
    private final StatusWriter statusWriter;
    private final WriteFence fence;

    /** Writers whose every request asks {@code fence} first; so does this, before each batch. */
    public DecisionWriter(ImpliedObjects implied, Evictor evictor, Binder binder, StatusWriter statusWriter, WriteFence fence) {
        this.implied = requireNonNull(implied, "implied is null");
        this.evictor = requireNonNull(evictor, "evictor is null");
        this.binder = requireNonNull(binder, "binder is null");
        this.statusWriter = requireNonNull(statusWriter, "statusWriter is null");
        this.fence = requireNonNull(fence, "fence is null");
    }

    /** The binder these writers bind through, for a caller that binds outside a cycle (the embedded benchmark's write path). */
    public Binder binder() {
        return binder;
    }

    /** The writers for one API server, with the default retries and {@code bindParallelism} binds in flight. */
    public static DecisionWriter connect(KubernetesClient client, ClusterCache cache, int bindParallelism, Clock clock) {
        return over(new RestCalls(client, RetryPolicy.DEFAULT), cache, bindParallelism, clock, WriteFence.NONE);
    }

    /**
     * The same, every request fenced (none is sent once {@code fence} is closed, each is bounded by its
     * time left) and telling {@code reachability} whether the server answered.
     */
    public static DecisionWriter connect(KubernetesClient client, ClusterCache cache, int bindParallelism, Clock clock,
            WriteFence fence, ApiServerReachability reachability) {
        return over(new RestCalls(client, RetryPolicy.DEFAULT, fence, Optional.of(reachability)), cache, bindParallelism, clock, fence);
    }

    private static DecisionWriter over(RestCalls rest, ClusterCache cache, int bindParallelism, Clock clock, WriteFence fence) {
        return new DecisionWriter(new ImpliedObjects(rest), new Evictor(rest), new Binder(rest, cache, bindParallelism),
                new StatusWriter(rest, clock), fence);
    }

    /**
     * What one cycle wrote.
     *
     * @param evictions the session's evictions that the API server accepted, in decision order
     */
    public record Written(ImmutableList<BindResult> binds, ImmutableList<SessionResult.Eviction> evictions, int statuses, boolean fenced) {
        public Written {
            binds = ImmutableList.copyOf(binds);
            evictions = ImmutableList.copyOf(evictions);
        }

        public Written(ImmutableList<BindResult> binds, ImmutableList<SessionResult.Eviction> evictions, int statuses) {
            this(binds, evictions, statuses, false);
        }

        /** How many pods were evicted. */
        public int evicted() {
            return evictions.size();
        }

        public long bound() {
            return binds.stream().filter(bind -> bind.status() == BindResult.Status.BOUND).count();
        }
    }

    /**
     * Opens one cycle's writes before its session runs: the implied objects are written at
     * once (they depend on the snapshot only), binds go out as the session commits them
     * ({@link Cycle#committed}), and {@link Cycle#finish} sends the evictions, waits for the binds and
     * writes statuses.
     *
     * @throws InterruptedException when interrupted; what was sent still completes
     */
    public Cycle begin(CacheSnapshot snapshot) throws InterruptedException {
        boolean fenced = fenced("implied objects");
        if (!fenced) {
            implied.reconcile(snapshot);
        }
        return new Cycle(snapshot, fenced);
    }

    /**
     * The writes of one cycle. {@link #committed} is called on the scheduling thread while
     * the session runs, then {@link #finish} or {@link #abandon} once.
     */
    public final class Cycle implements CommittedBinds {
        private final CacheSnapshot snapshot;
        private final Binder.Stream binds = binder.open();
        private boolean fenced;
        private int notSent;

        private Cycle(CacheSnapshot snapshot, boolean fenced) {
            this.snapshot = snapshot;
            this.fenced = fenced;
        }

        /** Sends the bind now, unless the fence is closed (then none of this cycle's later writes is sent either). */
        @Override
        public void committed(TaskState task, NodeName node) {
            fenced = fenced || !fence.open();
            if (fenced) {
                notSent++;
                return;
            }
            binds.send(new BindRequest(task.id(), task.task().uid(), node));
        }

        /**
         * Sends the session's evictions, waits for every bind sent, and writes statuses; nothing after the
         * fence closes.
         */
        public Written finish(SessionResult result) throws InterruptedException {
            if (fenced || fenced("evictions")) {
                ImmutableList<BindResult> sent = binds.finish();
                log.info("writes fenced: the lease is lost or its time ran out; sent binds={}, not sent: binds={} evictions={} statuses",
                        sent.size(), notSent, result.evictions().size());
                return new Written(sent, ImmutableList.of(), 0, true);
            }
            ImmutableList.Builder<SessionResult.Eviction> accepted = ImmutableList.builder();
            for (SessionResult.Eviction eviction : result.evictions()) {
                if (evictor.evict(eviction.task(), eviction.reason()) == Evictor.Result.EVICTED) {
                    accepted.add(eviction);
                }
            }
            ImmutableList<SessionResult.Eviction> evicted = accepted.build();
            ImmutableList<BindResult> sent = binds.finish();
            if (fenced("statuses")) {
                return new Written(sent, evicted, 0, true);
            }
            int statuses = statusWriter.write(snapshot, result);
            return new Written(sent, evicted, statuses, !fence.open());
        }

        /** Sends nothing more and waits for the binds already sent, for a cycle whose result is discarded. */
        public void abandon() throws InterruptedException {
            fenced = true;
            binds.finish();
        }
    }

    private boolean fenced(String batch) {
        if (fence.open()) {
            return false;
        }
        log.info("writes fenced: the lease is lost or its time ran out; not sent: {} and what follows", batch);
        return true;
    }
}
