/**
 * The controller SPI and the toolkit every controller uses. A {@link dev.muster.runtime.controller.Controller}
 * is contributed with {@link dev.muster.runtime.controller.ControllerBinder} and started by the runtime
 * once per leader term ({@link dev.muster.runtime.controller.ControllerSet}); a
 * {@link dev.muster.runtime.controller.TermController} makes a fresh {@code Term} for each. A term's
 * informers come from {@link dev.muster.runtime.controller.TermInformers} (each kind and selector once,
 * started in order, a failed first list named by kind, stopped in reverse) and its workers and timer from
 * {@link dev.muster.runtime.controller.TermThreads} ({@link dev.muster.runtime.controller.DaemonThreads},
 * named). {@link dev.muster.runtime.controller.KeyedWorkQueue} serialises the requests of each object
 * ({@link dev.muster.runtime.controller.ObjectKey}) with retries and backoff;
 * {@link dev.muster.runtime.controller.EveryChange} is the informer handler of a level-triggered
 * controller. Status-code classification ({@code binding.ApiResponse}) and event writing
 * ({@code binding.EventRecorder}) are shared with the scheduler's own writers.
 */
package dev.muster.runtime.controller;
