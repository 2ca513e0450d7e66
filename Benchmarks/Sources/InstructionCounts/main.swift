import HandoffOperations

// Runs one operation a given number of times, for scripts/instructions.sh, which
// runs it under callgrind twice (with N and N + 1000 iterations) and divides the
// difference by 1000: instructions per operation, without start-up costs.
// Usage: InstructionCounts <operation index> <chargekit|urlcomponents> <iterations>
//        InstructionCounts list

let arguments = CommandLine.arguments.dropFirst()
if arguments.first == "list" {
    for (index, operation) in HandoffOperation.all.enumerated() { print("\(index)\t\(operation.name)") }
} else if arguments.count == 3, let index = Int(arguments[arguments.startIndex]), HandoffOperation.all.indices.contains(index),
          let iterations = Int(arguments[arguments.startIndex + 2]), iterations >= 0 {
    let operation = HandoffOperation.all[index]
    let run = arguments[arguments.startIndex + 1] == "chargekit" ? operation.chargeKitWork : operation.foundationWork
    var kept = 0
    for _ in 0..<iterations where run() { kept &+= 1 }
    print(kept)
} else {
    print("usage: InstructionCounts list | InstructionCounts <index> <chargekit|urlcomponents> <iterations>")
}
