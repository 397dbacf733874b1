package dev.muster.engine.jobs.runtime;

import static java.util.Objects.requireNonNull;

import com.google.errorprone.annotations.ThreadSafe;
import dev.muster.engine.binding.EventRecorder;
import dev.muster.engine.binding.RetryPolicy;
import dev.muster.engine.jobs.VolcanoJob;
import dev.muster.engine.jobs.controller.JobReconciler;
import dev.muster.engine.jobs.controller.JobRequest;
import dev.muster.engine.jobs.flow.JobFlow;
import dev.muster.engine.jobs.plugins.SshKeyGenerator;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Volcano's Job and JobFlow controllers, run by Muster against one API server: what {@code muster up}
 * starts beside the scheduler and {@code muster run --job-controllers} opts into. Not to be run where
 * Volcano's own controller-manager runs: both would create and delete the same pods.
 */
@ThreadSafe
public final class JobControllers {
    static final int WORKERS = 4;
    static final Duration FIRST_BACKOFF = Duration.ofMillis(200);
    static final Duration MAX_BACKOFF = Duration.ofSeconds(30);
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(5);
    /** How often to say, while waiting, that the API server cannot be read yet. */
    private static final Duration WARN_EVERY = Duration.ofSeconds(10);
    private static final Logger log = LoggerFactory.getLogger(JobControllers.class);

    private final KubernetesClient client;
    private final ControllerInformers informers;
    private final ExecutorService workers;
    private final ScheduledExecutorService timer;
    private final KeyedWorkQueue<ObjectKey, JobRequest> jobQueue;
    private final KeyedWorkQueue<ObjectKey, JobFlowController.Sync> flowQueue;

    public JobControllers(KubernetesClient client, Clock clock) {
        this(client, clock, SshKeyGenerator.RSA);
    }

    public JobControllers(KubernetesClient client, Clock clock, SshKeyGenerator keys) {
        this.client = requireNonNull(client, "client is null");
        requireNonNull(clock, "clock is null");
        this.informers = new ControllerInformers(client);
        this.workers = Executors.newFixedThreadPool(WORKERS, daemon("muster-job-controller"));
        this.timer = Executors.newSingleThreadScheduledExecutor(daemon("muster-job-timer"));
        EventWriter events = new EventWriter(EventRecorder.connect(client, RetryPolicy.DEFAULT, clock, EventWriter.COMPONENT));
        JobController jobs = new JobController(informers, new JobReconciler(keys, informers.priorities()),
                new JobPlanWriter(client, informers, events), clock);
        JobFlowController flows = new JobFlowController(client, informers, events);
        this.jobQueue = new KeyedWorkQueue<>("job", (key, request) -> jobs.process(key, request, queue()), workers, timer,
                FIRST_BACKOFF, MAX_BACKOFF);
        this.flowQueue = new KeyedWorkQueue<>("jobflow", (key, request) -> flows.process(key, flowQueue()), workers, timer,
                FIRST_BACKOFF, MAX_BACKOFF);
        ControllerHandlers.register(informers, jobs, flows, jobQueue, flowQueue);
    }

    /** Starts the informers and waits until each has listed its kind once; requests flow from then on. */
    public void start() throws InterruptedException {
        informers.start(WARN_EVERY);
        log.info("job controllers started server={} kinds={}/{} {}/{}", client.getMasterUrl(), VolcanoJob.API_VERSION, VolcanoJob.KIND,
                JobFlow.API_VERSION, JobFlow.KIND);
    }

    /** Stops the informers, drops waiting requests, and waits a little for those in progress; an interrupt stays set. */
    public void stop() {
        informers.stop();
        jobQueue.stop();
        flowQueue.stop();
        timer.shutdownNow();
        workers.shutdown();
        try {
            if (!workers.awaitTermination(STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                log.warn("job controllers: requests still in progress after {} ms", STOP_TIMEOUT.toMillis());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private KeyedWorkQueue<ObjectKey, JobRequest> queue() {
        return jobQueue;
    }

    private KeyedWorkQueue<ObjectKey, JobFlowController.Sync> flowQueue() {
        return flowQueue;
    }

    private static ThreadFactory daemon(String prefix) {
        AtomicInteger count = new AtomicInteger();
        return runnable -> {
            Thread thread = new Thread(runnable, prefix + "-" + count.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        };
    }
}
