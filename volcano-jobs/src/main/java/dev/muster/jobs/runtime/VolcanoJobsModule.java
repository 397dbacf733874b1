package dev.muster.jobs.runtime;

import static com.google.common.base.Preconditions.checkArgument;
import static dev.muster.runtime.controller.ControllerBinder.controllerBinder;
import static java.util.Objects.requireNonNull;

import com.google.inject.AbstractModule;
import dev.muster.jobs.jobplugins.SshKeyGenerator;
import java.time.Duration;

/**
 * Volcano's Job, JobFlow, JobTemplate and Command controllers as one {@link VolcanoJobsController},
 * contributed to the runtime: installed by {@code muster up} always, and by {@code muster run} with
 * {@code --job-controllers}.
 */
public final class VolcanoJobsModule extends AbstractModule {
    private final Duration resyncPeriod;

    public VolcanoJobsModule() {
        this(VolcanoControllerTerm.DEFAULT_RESYNC);
    }

    /** @param resyncPeriod how often every known Job is synced again */
    public VolcanoJobsModule(Duration resyncPeriod) {
        requireNonNull(resyncPeriod, "resyncPeriod is null");
        checkArgument(!resyncPeriod.isNegative() && !resyncPeriod.isZero(), "resyncPeriod must be positive: %s", resyncPeriod);
        this.resyncPeriod = resyncPeriod;
    }

    @Override
    protected void configure() {
        bind(VolcanoJobsController.Settings.class).toInstance(new VolcanoJobsController.Settings(SshKeyGenerator.RSA, resyncPeriod));
        controllerBinder(binder()).addController(VolcanoJobsController.class);
    }
}
