package dev.muster.cli;

import com.google.inject.Guice;
import com.google.inject.Injector;
import dev.muster.engine.EngineModule;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code muster} command. */
@Command(
        name = "muster",
        mixinStandardHelpOptions = true,
        version = "muster 0.1.0",
        description = "A batch scheduler for Kubernetes: gangs, queues, job graphs, topology.",
        subcommands = {RunCommand.class, UpCommand.class, DemoCommand.class, WhatIfCommand.class, BenchCommand.class, CommandLine.HelpCommand.class})
public final class Main implements Runnable {
    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(System.out);
    }

    public static void main(String[] args) {
        System.exit(execute(args));
    }

    /** Runs the command line and returns the exit code. */
    public static int execute(String... args) {
        Injector injector = Guice.createInjector(new EngineModule(), new CliModule());
        CommandLine commandLine = new CommandLine(Main.class, new GuiceFactory(injector));
        commandLine.setExecutionExceptionHandler((exception, line, parseResult) -> {
            line.getErr().println("muster: " + exception.getMessage());
            return ExitCodes.FAILURE;
        });
        return commandLine.execute(args);
    }
}
