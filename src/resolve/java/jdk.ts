// Public types of the JDK packages most often imported on demand (`import java.util.*;`). With
// these lists an on-demand import of a JDK package proves a simple name only when the package
// really declares it, so `List` under `import java.util.*; import org.acme.*;` is java.util.List
// (a compiling file cannot see two `List`s), while an unknown name is never guessed into java.util.
// Packages not listed here are unknown: a name can only be guessed into them (confidence medium).

const LISTS: Record<string, string> = {
  "java.util":
    "AbstractCollection AbstractList AbstractMap AbstractQueue AbstractSequentialList AbstractSet ArrayDeque ArrayList Arrays Base64 BitSet Calendar Collection Collections Comparator ConcurrentModificationException Currency Date Deque Dictionary DoubleSummaryStatistics EmptyStackException EnumMap EnumSet Enumeration EventListener EventObject Formattable Formatter GregorianCalendar HashMap HashSet Hashtable HexFormat IdentityHashMap IllformedLocaleException InputMismatchException IntSummaryStatistics Iterator LinkedHashMap LinkedHashSet LinkedList List ListIterator ListResourceBundle Locale LongSummaryStatistics Map MissingResourceException NavigableMap NavigableSet NoSuchElementException Objects Observable Observer Optional OptionalDouble OptionalInt OptionalLong PrimitiveIterator PriorityQueue Properties PropertyResourceBundle Queue Random RandomAccess ResourceBundle Scanner SequencedCollection SequencedMap SequencedSet ServiceLoader Set SimpleTimeZone SortedMap SortedSet Spliterator Spliterators SplittableRandom Stack StringJoiner StringTokenizer Timer TimerTask TimeZone TooManyListenersException TreeMap TreeSet UUID Vector WeakHashMap",
  "java.util.function":
    "BiConsumer BiFunction BinaryOperator BiPredicate BooleanSupplier Consumer DoubleBinaryOperator DoubleConsumer DoubleFunction DoublePredicate DoubleSupplier DoubleToIntFunction DoubleToLongFunction DoubleUnaryOperator Function IntBinaryOperator IntConsumer IntFunction IntPredicate IntSupplier IntToDoubleFunction IntToLongFunction IntUnaryOperator LongBinaryOperator LongConsumer LongFunction LongPredicate LongSupplier LongToDoubleFunction LongToIntFunction LongUnaryOperator ObjDoubleConsumer ObjIntConsumer ObjLongConsumer Predicate Supplier ToDoubleBiFunction ToDoubleFunction ToIntBiFunction ToIntFunction ToLongBiFunction ToLongFunction UnaryOperator",
  "java.util.stream":
    "BaseStream Collector Collectors DoubleStream IntStream LongStream Stream StreamSupport Gatherer Gatherers",
  "java.util.concurrent":
    "AbstractExecutorService ArrayBlockingQueue BlockingDeque BlockingQueue BrokenBarrierException Callable CancellationException CompletableFuture CompletionException CompletionService CompletionStage ConcurrentHashMap ConcurrentLinkedDeque ConcurrentLinkedQueue ConcurrentMap ConcurrentNavigableMap ConcurrentSkipListMap ConcurrentSkipListSet CopyOnWriteArrayList CopyOnWriteArraySet CountDownLatch CountedCompleter CyclicBarrier Delayed DelayQueue Exchanger ExecutionException Executor ExecutorCompletionService Executors ExecutorService Flow ForkJoinPool ForkJoinTask ForkJoinWorkerThread Future FutureTask LinkedBlockingDeque LinkedBlockingQueue LinkedTransferQueue Phaser PriorityBlockingQueue RecursiveAction RecursiveTask RejectedExecutionException RejectedExecutionHandler RunnableFuture RunnableScheduledFuture ScheduledExecutorService ScheduledFuture ScheduledThreadPoolExecutor Semaphore StructuredTaskScope SubmissionPublisher SynchronousQueue ThreadFactory ThreadLocalRandom ThreadPoolExecutor TimeoutException TimeUnit TransferQueue",
  "java.util.concurrent.atomic":
    "AtomicBoolean AtomicInteger AtomicIntegerArray AtomicIntegerFieldUpdater AtomicLong AtomicLongArray AtomicLongFieldUpdater AtomicMarkableReference AtomicReference AtomicReferenceArray AtomicReferenceFieldUpdater AtomicStampedReference DoubleAccumulator DoubleAdder LongAccumulator LongAdder",
  "java.util.concurrent.locks":
    "AbstractOwnableSynchronizer AbstractQueuedLongSynchronizer AbstractQueuedSynchronizer Condition Lock LockSupport ReadWriteLock ReentrantLock ReentrantReadWriteLock StampedLock",
  "java.util.regex": "MatchResult Matcher Pattern PatternSyntaxException",
  "java.io":
    "BufferedInputStream BufferedOutputStream BufferedReader BufferedWriter ByteArrayInputStream ByteArrayOutputStream CharArrayReader CharArrayWriter CharConversionException Closeable Console DataInput DataInputStream DataOutput DataOutputStream EOFException Externalizable File FileDescriptor FileFilter FileInputStream FilenameFilter FileNotFoundException FileOutputStream FileReader FileWriter FilterInputStream FilterOutputStream FilterReader FilterWriter Flushable InputStream InputStreamReader InterruptedIOException InvalidClassException InvalidObjectException IOError IOException LineNumberReader NotSerializableException ObjectInput ObjectInputStream ObjectOutput ObjectOutputStream ObjectStreamException OptionalDataException OutputStream OutputStreamWriter PipedInputStream PipedOutputStream PipedReader PipedWriter PrintStream PrintWriter PushbackInputStream PushbackReader RandomAccessFile Reader SequenceInputStream Serial Serializable StreamCorruptedException StreamTokenizer StringReader StringWriter SyncFailedException UncheckedIOException UnsupportedEncodingException UTFDataFormatException WriteAbortedException Writer",
  "java.nio.file":
    "AccessDeniedException AccessMode AtomicMoveNotSupportedException CopyOption DirectoryNotEmptyException DirectoryStream FileAlreadyExistsException Files FileStore FileSystem FileSystemException FileSystems FileVisitOption FileVisitResult FileVisitor InvalidPathException LinkOption NoSuchFileException NotDirectoryException OpenOption Path PathMatcher Paths SimpleFileVisitor StandardCopyOption StandardOpenOption StandardWatchEventKinds WatchEvent WatchKey WatchService",
  "java.nio":
    "Buffer BufferOverflowException BufferUnderflowException ByteBuffer ByteOrder CharBuffer DoubleBuffer FloatBuffer IntBuffer LongBuffer MappedByteBuffer ReadOnlyBufferException ShortBuffer",
  "java.nio.charset": "Charset CharsetDecoder CharsetEncoder StandardCharsets UnsupportedCharsetException",
  "java.net":
    "ConnectException CookieHandler CookieManager DatagramPacket DatagramSocket HttpCookie HttpURLConnection IDN Inet4Address Inet6Address InetAddress InetSocketAddress MalformedURLException NetworkInterface PasswordAuthentication Proxy ProxySelector ServerSocket Socket SocketAddress SocketException SocketTimeoutException UnknownHostException URI URISyntaxException URL URLClassLoader URLConnection URLDecoder URLEncoder",
  "java.time":
    "Clock DateTimeException DayOfWeek Duration Instant InstantSource LocalDate LocalDateTime LocalTime Month MonthDay OffsetDateTime OffsetTime Period Year YearMonth ZonedDateTime ZoneId ZoneOffset",
  "java.time.format": "DateTimeFormatter DateTimeFormatterBuilder DateTimeParseException FormatStyle ResolverStyle TextStyle",
  "java.math": "BigDecimal BigInteger MathContext RoundingMode",
  "java.text":
    "AttributedString BreakIterator ChoiceFormat Collator CompactNumberFormat DateFormat DateFormatSymbols DecimalFormat DecimalFormatSymbols FieldPosition Format MessageFormat Normalizer NumberFormat ParseException ParsePosition SimpleDateFormat StringCharacterIterator",
  "java.sql":
    "Array BatchUpdateException Blob CallableStatement Clob Connection DatabaseMetaData DataTruncation Date Driver DriverManager NClob ParameterMetaData PreparedStatement Ref ResultSet ResultSetMetaData RowId Savepoint SQLData SQLException SQLFeatureNotSupportedException SQLInput SQLIntegrityConstraintViolationException SQLOutput SQLTimeoutException SQLType SQLWarning SQLXML Statement Struct Time Timestamp Types Wrapper",
  "java.lang.reflect":
    "AccessibleObject Array Constructor Executable Field GenericArrayType InvocationHandler InvocationTargetException Member Method Modifier Parameter ParameterizedType Proxy Type TypeVariable UndeclaredThrowableException WildcardType",
  "java.lang.annotation":
    "Annotation Documented ElementType Inherited Native Repeatable Retention RetentionPolicy Target",
};

const JDK = new Map<string, ReadonlySet<string>>(Object.entries(LISTS).map(([k, v]) => [k, new Set(v.split(" "))]));

/** Whether a JDK package is listed; then `declares` is exact for it. */
export function isListedPackage(pkg: string): boolean {
  return JDK.has(pkg);
}

export function jdkDeclares(pkg: string, name: string): boolean {
  return JDK.get(pkg)?.has(name) === true;
}
