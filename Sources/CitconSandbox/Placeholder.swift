import Hummingbird
import SQLiteNIO
enum _Placeholder {}
