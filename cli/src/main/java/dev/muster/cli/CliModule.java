package dev.muster.cli;

import com.google.inject.AbstractModule;
import com.google.inject.Provides;
import com.google.inject.Singleton;
import java.time.Clock;

/** What the command line adds to the engine: the wall clock. */
public final class CliModule extends AbstractModule {
    @Override
    protected void configure() {
        bind(WhatIf.class).in(Singleton.class);
    }

    @Provides
    @Singleton
    Clock clock() {
        return Clock.systemUTC();
    }
}
