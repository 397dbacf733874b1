package dev.muster.runtime.binding;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import dev.muster.engine.cache.CacheSnapshot;
import dev.muster.engine.cache.ClusterCache;
import dev.muster.engine.framework.SessionResult;
import dev.muster.engine.model.Job;
import dev.muster.engine.model.NodeName;
import dev.muster.engine.model.Task;
import dev.muster.engine.model.TaskId;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The write side of a cycle, in order: the controllers' missing objects, evictions, binds, then
 * status and events. Every decision of the session reaches the API server through here.
 *
 * <p>Not thread-safe: the scheduling thread calls it once per cycle.
 */
public final class DecisionWriter {
    private final ClusterControllers controllers;
    private final Evictor evictor;
    private final Binder binder;
    private final StatusWriter statusWriter;

    public DecisionWriter(ClusterControllers controllers, Evictor evictor, Binder binder, StatusWriter statusWriter) {
        this.controllers = requireNonNull(controllers, "controllers is null");
        this.evictor = requireNonNull(evictor, "evictor is null");
        this.binder = requireNonNull(binder, "binder is null");
        this.statusWriter = requireNonNull(statusWriter, "statusWriter is null");
    }

    /** The writers for one API server, with the default retries and {@code bindParallelism} binds in flight. */
    public static DecisionWriter connect(KubernetesClient client, ClusterCache cache, int bindParallelism, Clock clock) {
        RetryPolicy retry = RetryPolicy.DEFAULT;
        return new DecisionWriter(
                new ClusterControllers(client, retry),
                new Evictor(client, retry),
                new Binder(client, cache, retry, bindParallelism),
                new StatusWriter(client, retry, clock));
    }

    /** What one cycle wrote. */
    public record Written(ImmutableList<BindResult> binds, int evicted, int statuses) {
        public Written {
            binds = ImmutableList.copyOf(binds);
        }

        public long bound() {
            return binds.stream().filter(bind -> bind.status() == BindResult.Status.BOUND).count();
        }
    }

    /**
     * Writes a session's decisions.
     *
     * @throws InterruptedException when interrupted; what was sent still completes
     */
    public Written write(CacheSnapshot snapshot, SessionResult result) throws InterruptedException {
        controllers.reconcile(snapshot);
        int evicted = 0;
        for (SessionResult.Eviction eviction : result.evictions()) {
            if (evictor.evict(eviction.task(), eviction.reason()) == Evictor.Result.EVICTED) {
                evicted++;
            }
        }
        Map<TaskId, Task> tasks = new HashMap<>();
        for (Job job : snapshot.cluster().jobs().values()) {
            job.tasks().forEach(task -> tasks.put(task.id(), task));
        }
        List<BindRequest> requests = new ArrayList<>();
        for (Map.Entry<TaskId, NodeName> bind : result.binds().entrySet()) {
            Task task = tasks.get(bind.getKey());
            requests.add(new BindRequest(bind.getKey(), task == null ? "" : task.uid(), bind.getValue()));
        }
        ImmutableList<BindResult> binds = binder.bind(requests);
        int statuses = statusWriter.write(snapshot, result);
        return new Written(binds, evicted, statuses);
    }
}
