package dev.muster.jobs.runtime;

import static com.google.common.base.Preconditions.checkArgument;
import static java.util.Objects.requireNonNull;

import com.google.errorprone.annotations.ThreadSafe;
import dev.muster.jobs.VolcanoJob;
import dev.muster.jobs.controller.JobReconciler;
import dev.muster.jobs.controller.JobRequest;
import dev.muster.jobs.flow.JobFlow;
import dev.muster.jobs.jobplugins.SshKeyGenerator;
import dev.muster.runtime.binding.EventRecorder;
import dev.muster.runtime.binding.RetryPolicy;
import dev.muster.runtime.controller.KeyedWorkQueue;
import dev.muster.runtime.controller.ObjectKey;
import dev.muster.runtime.controller.SharedInformers;
import dev.muster.runtime.controller.TermController;
import dev.muster.runtime.controller.TermThreads;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Volcano's Job and JobFlow controllers, run by Muster against one API server: what {@code muster up}
 * starts beside the scheduler and {@code muster run --job-controllers} opts into. Not to be run where
 * Volcano's own controller-manager runs: both would create and delete the same pods.
 */
@ThreadSafe
public final class VolcanoControllerTerm implements TermController.Term {
    static final int WORKERS = 4;
    static final Duration FIRST_BACKOFF = Duration.ofMillis(200);
    static final Duration MAX_BACKOFF = Duration.ofSeconds(30);
    public static final Duration DEFAULT_RESYNC = Duration.ofSeconds(30);
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(5);
    /** How often to say, while waiting, that the API server cannot be read yet. */
    private static final Duration WARN_EVERY = Duration.ofSeconds(10);
    private static final Logger log = LoggerFactory.getLogger(VolcanoControllerTerm.class);

    private final KubernetesClient client;
    private final VolcanoInformers informers;
    private final TermThreads threads;
    private final KeyedWorkQueue<ObjectKey, JobRequest> jobQueue;
    private final JobController jobs;
    private final Duration resyncPeriod;
    private final KeyedWorkQueue<ObjectKey, JobFlowController.Sync> flowQueue;
    private final KeyedWorkQueue<ObjectKey, JobFlowController.Sync> templateQueue;
    private final KeyedWorkQueue<ObjectKey, JobFlowController.Sync> commandQueue;

    public VolcanoControllerTerm(KubernetesClient client, SharedInformers shared, Clock clock) {
        this(client, shared, clock, SshKeyGenerator.RSA, DEFAULT_RESYNC);
    }

    /**
     * @param resyncPeriod how often every known Job is synced again, recreating the plugin objects
     *     deleted by hand (Kubernetes controllers resync every 30 s to a few minutes)
     */
    public VolcanoControllerTerm(KubernetesClient client, SharedInformers shared, Clock clock, SshKeyGenerator keys,
            Duration resyncPeriod) {
        this.client = requireNonNull(client, "client is null");
        requireNonNull(clock, "clock is null");
        checkArgument(!resyncPeriod.isNegative() && !resyncPeriod.isZero(), "resyncPeriod must be positive: %s", resyncPeriod);
        this.resyncPeriod = resyncPeriod;
        this.informers = new VolcanoInformers(client, shared);
        this.threads = new TermThreads("muster-job-controller", WORKERS);
        ExecutorService workers = threads.workers();
        ScheduledExecutorService timer = threads.timer();
        EventWriter events = new EventWriter(EventRecorder.connect(client, RetryPolicy.DEFAULT, clock, EventWriter.COMPONENT));
        this.jobs = new JobController(informers, new JobReconciler(keys, informers.priorities()),
                new JobPlanWriter(client, informers, events), clock);
        JobFlowController flows = new JobFlowController(client, informers, events);
        this.jobQueue = new KeyedWorkQueue<>("job", (key, request) -> jobs.process(key, request, queue()), workers, timer,
                FIRST_BACKOFF, MAX_BACKOFF);
        this.flowQueue = new KeyedWorkQueue<>("jobflow", (key, request) -> flows.process(key, flowQueue()), workers, timer,
                FIRST_BACKOFF, MAX_BACKOFF);
        JobTemplateController templates = new JobTemplateController(client, informers, events);
        this.templateQueue = new KeyedWorkQueue<>("jobtemplate", (key, request) -> templates.process(key), workers, timer,
                FIRST_BACKOFF, MAX_BACKOFF);
        CommandController commands = new CommandController(client, informers, events);
        this.commandQueue = new KeyedWorkQueue<>("command", (key, request) -> commands.process(key, queue()), workers, timer,
                FIRST_BACKOFF, MAX_BACKOFF);
        VolcanoInformerHandlers.register(informers, jobs, flows, templates, jobQueue, flowQueue, templateQueue, commandQueue);
    }

    /** Starts the informers and waits until each has listed its kind once; requests flow from then on, and resyncs every period. */
    @Override
    public void start() throws InterruptedException {
        informers.start(WARN_EVERY);
        threads.timer().scheduleAtFixedRate(this::resyncLogged, resyncPeriod.toMillis(), resyncPeriod.toMillis(), TimeUnit.MILLISECONDS);
        log.info("job controllers started server={} kinds={}/{} {}/{}", client.getMasterUrl(), VolcanoJob.API_VERSION, VolcanoJob.KIND,
                JobFlow.API_VERSION, JobFlow.KIND);
    }

    /**
     * One resync: every Job the informer has gets a sync that also looks for its plugin objects (the
     * svc plugin's Service, ConfigMap and NetworkPolicy, the ssh plugin's Secret) and makes again
     * those deleted by hand. What the timer runs every period; callable at any time.
     */
    public void resync() {
        for (GenericKubernetesResource job : informers.jobs.getStore().list()) {
            jobs.resync(job.getMetadata().getUid());
            jobQueue.add(new ObjectKey(job.getMetadata().getNamespace(), job.getMetadata().getName()), JobRequest.sync());
        }
    }

    private void resyncLogged() {
        try {
            resync();
        } catch (RuntimeException e) {
            // a failed pass must not cancel the next ones
            log.warn("job controllers: resync failed, next in {} ms", resyncPeriod.toMillis(), e);
        }
    }

    /** Stops the informers, drops waiting requests, and waits a little for those in progress; an interrupt stays set. */
    @Override
    public void stop() {
        informers.stop();
        jobQueue.stop();
        flowQueue.stop();
        templateQueue.stop();
        commandQueue.stop();
        if (!threads.stop(STOP_TIMEOUT) && !Thread.currentThread().isInterrupted()) {
            log.warn("job controllers: requests still in progress after {} ms", STOP_TIMEOUT.toMillis());
        }
    }

    private KeyedWorkQueue<ObjectKey, JobRequest> queue() {
        return jobQueue;
    }

    private KeyedWorkQueue<ObjectKey, JobFlowController.Sync> flowQueue() {
        return flowQueue;
    }
}
