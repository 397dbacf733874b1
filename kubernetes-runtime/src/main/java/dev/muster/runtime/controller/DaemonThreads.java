package dev.muster.runtime.controller;

import com.google.common.util.concurrent.ThreadFactoryBuilder;
import java.util.concurrent.ThreadFactory;

/** Threads of a controller's term (workers, timers): daemons, so a term that was not stopped never keeps the JVM alive. */
public final class DaemonThreads {
    private DaemonThreads() {}

    /** Names its threads {@code prefix-0}, {@code prefix-1}, ... */
    public static ThreadFactory named(String prefix) {
        return new ThreadFactoryBuilder().setNameFormat(prefix + "-%d").setDaemon(true).build();
    }
}
