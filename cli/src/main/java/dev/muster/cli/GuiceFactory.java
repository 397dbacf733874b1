package dev.muster.cli;

import static java.util.Objects.requireNonNull;

import com.google.inject.ConfigurationException;
import com.google.inject.Injector;
import picocli.CommandLine;

/** Lets picocli build commands through the injector, so commands get their dependencies by constructor. */
final class GuiceFactory implements CommandLine.IFactory {
    private final Injector injector;

    GuiceFactory(Injector injector) {
        this.injector = requireNonNull(injector, "injector is null");
    }

    @Override
    public <K> K create(Class<K> type) throws Exception {
        try {
            return injector.getInstance(type);
        } catch (ConfigurationException e) {
            return CommandLine.defaultFactory().create(type);
        }
    }
}
