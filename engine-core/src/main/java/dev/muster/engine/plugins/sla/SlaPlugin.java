package dev.muster.engine.plugins.sla;

import static java.util.Objects.requireNonNull;

import dev.muster.engine.api.GoDuration;
import dev.muster.engine.framework.AdmissionCheck;
import dev.muster.engine.framework.JobOrder;
import dev.muster.engine.framework.JobPipelining;
import dev.muster.engine.framework.JobState;
import dev.muster.engine.framework.Plugin;
import dev.muster.engine.framework.PluginFactory;
import dev.muster.engine.framework.Session;
import dev.muster.engine.framework.Vote;
import dev.muster.engine.model.JobId;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Service-level waiting times (Volcano's {@code sla}). A job's waiting time comes from its PodGroup
 * annotation {@code volcano.sh/sla-waiting-time} or {@code sla-waiting-time}, else from the plugin's
 * {@code sla-waiting-time} argument. Jobs with a waiting time go first, earliest deadline
 * ({@code creation + waiting time}) first; once a job has waited that long, the plugin permits its
 * admission and its pipelining, which overrides other plugins' abstentions but not their rejections.
 */
public final class SlaPlugin implements Plugin, JobOrder, AdmissionCheck, JobPipelining {
    public static final String NAME = "sla";
    static final String ANNOTATION = "volcano.sh/sla-waiting-time";
    static final String LEGACY_ANNOTATION = "sla-waiting-time";
    private static final Logger log = LoggerFactory.getLogger(SlaPlugin.class);

    private final Optional<Duration> globalWaitingTime;
    private final Instant now;
    private final Map<JobId, Optional<Duration>> waitingTimes = new HashMap<>();

    SlaPlugin(SlaArgs args, Session session) {
        this.globalWaitingTime = args.globalWaitingTime();
        this.now = session.now();
        for (JobState job : session.jobs()) {
            waitingTimes.put(job.id(), readWaitingTime(job).or(() -> globalWaitingTime));
        }
    }

    /** The job's own waiting time; an unreadable or non-positive annotation counts as none, as in Volcano. */
    private static Optional<Duration> readWaitingTime(JobState job) {
        for (String key : new String[] {ANNOTATION, LEGACY_ANNOTATION}) {
            String text = job.job().annotations().get(key);
            if (text == null) {
                continue;
            }
            try {
                Duration duration = GoDuration.parse(text);
                if (!duration.isNegative() && !duration.isZero()) {
                    return Optional.of(duration);
                }
                log.debug("job={}: annotation {}='{}' is not positive, ignored", job.id(), key, text);
            } catch (IllegalArgumentException e) {
                log.debug("job={}: annotation {} ignored: {}", job.id(), key, e.getMessage());
            }
        }
        return Optional.empty();
    }

    private Optional<Duration> waitingTime(JobState job) {
        return waitingTimes.getOrDefault(job.id(), globalWaitingTime);
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public int compareJobs(JobState left, JobState right) {
        Optional<Duration> leftWait = waitingTime(left);
        Optional<Duration> rightWait = waitingTime(right);
        if (leftWait.isEmpty() || rightWait.isEmpty()) {
            return Boolean.compare(leftWait.isEmpty(), rightWait.isEmpty());
        }
        Instant leftDeadline = left.job().created().plus(leftWait.get());
        Instant rightDeadline = right.job().created().plus(rightWait.get());
        return leftDeadline.compareTo(rightDeadline);
    }

    @Override
    public Vote isEnqueueable(JobState job) {
        return permitWhenOverdue(job);
    }

    @Override
    public Vote isPipelined(JobState job) {
        return permitWhenOverdue(job);
    }

    private Vote permitWhenOverdue(JobState job) {
        Optional<Duration> waitingTime = waitingTime(job);
        if (waitingTime.isEmpty()) {
            return Vote.ABSTAIN;
        }
        Duration waited = Duration.between(job.job().created(), now);
        return waited.compareTo(waitingTime.get()) < 0 ? Vote.ABSTAIN : Vote.PERMIT;
    }

    /** Builds the plugin from its {@link SlaArgs}. */
    public static final class Factory implements PluginFactory<SlaArgs> {
        @Override
        public String name() {
            return NAME;
        }

        @Override
        public Class<SlaArgs> argsType() {
            return SlaArgs.class;
        }

        @Override
        public SlaArgs defaultArgs() {
            return SlaArgs.DEFAULTS;
        }

        @Override
        public Plugin create(SlaArgs args, Session session) {
            requireNonNull(args, "args is null");
            return new SlaPlugin(args, session);
        }
    }
}
