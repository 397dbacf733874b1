/**
 * The Kubeflow bridge: TFJobs and PyTorchJobs ({@code kubeflow.org/v1}) that Kubeflow's training operator
 * runs, scheduled by Muster as gangs. The operator writes the PodGroup (Volcano's with
 * {@code --gang-scheduler-name=volcano}, scheduler-plugins' with any other name); the bridge completes
 * what it leaves out, through the API server and in Volcano's vocabulary: the queue of
 * {@code runPolicy.schedulingPolicy} on the scheduler-plugins path (a Volcano PodGroup of the same name,
 * which the engine reads first), {@code scheduleTimeoutSeconds} as a gang timeout, Muster's pending
 * reason as Events on the job, and a condition, an Event and a suspended job for bad input. Reading
 * ({@link dev.muster.bridge.kubeflow.TrainingJobReader}) and deciding
 * ({@link dev.muster.bridge.kubeflow.TrainingJobPlanner}) are pure;
 * {@link dev.muster.bridge.kubeflow.TrainingJobWriter} applies a plan. For native mode, without the
 * operator, {@link dev.muster.bridge.kubeflow.NativeReplicaPlanner} (pure) plans the pods and Services the
 * operator would make, from a job read by {@link dev.muster.bridge.kubeflow.NativeJobReader};
 * {@link dev.muster.bridge.kubeflow.NativeJobController} runs the loop: {@link dev.muster.bridge.kubeflow.NativeJobSync}
 * (pure) decides a sync, {@link dev.muster.bridge.kubeflow.NativeJobWriter} applies it.
 */
package dev.muster.bridge.kubeflow;
