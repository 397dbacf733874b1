package dev.muster.cli;

/** The JVM shutdown hooks of the long-running commands ({@code muster run}, {@code muster up}). */
final class ShutdownHooks {
    private ShutdownHooks() {}

    /**
     * Removes a command's hook once the command stopped by other means than the JVM exiting (an
     * interrupt, a failure), so that no hook is left behind in an embedding JVM.
     */
    static void remove(Thread hook) {
        if (hook.isAlive()) {
            // the hook is what stopped the command: the JVM is exiting and keeps no hooks anyway
            return;
        }
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException e) {
            // the JVM began to exit in between; its hooks are no longer ours to remove
            return;
        }
    }
}
